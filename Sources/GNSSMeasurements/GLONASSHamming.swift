/// The check bits of a GLONASS navigation string (GLONASS ICD 5.1, 4.7, table 4.13): a Hamming
/// code over the 77 data bits b85…b9 in the string's last eight bits β8…β1 (bit k of the
/// ICD's numbering being bit k − 1 of the integer).
///
/// Each of β1…β7 makes its set of data bits even, and β8 makes the whole string even: a
/// receiver's checksums c1…c7 and cΣ, which add each set to its check bit, are then zero.
enum GLONASSHamming {
  /// The data bits each of β1…β7 covers, as the ICD lists them.
  static let sets: [[ClosedRange<Int>]] = [
    [
      9...10, 12...13, 15...15, 17...17, 19...20, 22...22, 24...24, 26...26, 28...28, 30...30,
      32...32, 34...35, 37...37, 39...39, 41...41, 43...43, 45...45, 47...47, 49...49, 51...51,
      53...53, 55...55, 57...57, 59...59, 61...61, 63...63, 65...66, 68...68, 70...70, 72...72,
      74...74, 76...76, 78...78, 80...80, 82...82, 84...84,
    ],
    [
      9...9, 11...12, 14...15, 18...19, 21...22, 25...26, 29...30, 33...34, 36...37, 40...41,
      44...45, 48...49, 52...53, 56...57, 60...61, 64...65, 67...68, 71...72, 75...76, 79...80,
      83...84,
    ],
    [
      10...12, 16...19, 23...26, 31...34, 38...41, 46...49, 54...57, 62...65, 69...72, 77...80,
      85...85,
    ],
    [13...19, 27...34, 42...49, 58...65, 73...80],
    [20...34, 50...65, 81...85],
    [35...65],
    [66...85],
  ]

  /// Each set as a mask of the string.
  static let masks: [UInt128] = sets.map { ranges in
    ranges.joined().reduce(0) { $0 | 1 << ($1 - 1) }
  }

  /// The data bits b85…b9.
  static let dataMask: UInt128 = (1 << 85 - 1) ^ 0xFF

  /// The eight check bits of `string` (its data bits b85…b9; its own bits 8…1 are ignored),
  /// β1 the lowest.
  static func checkBits(of string: UInt128) -> UInt128 {
    let data = string & dataMask
    var check: UInt128 = 0
    for (index, mask) in masks.enumerated() where (data & mask).nonzeroBitCount % 2 == 1 {
      check |= 1 << index
    }
    if (data.nonzeroBitCount + check.nonzeroBitCount) % 2 == 1 { check |= 1 << 7 }
    return check
  }
}
