import InputFiles
import Simulation

/// Reads GPS almanacs in YUMA format, told apart from other files by their content.
///
/// The file is read line by line through `LineReader`, and no more than `maximumFileSize` bytes
/// are accepted (an almanac of 32 satellites is under 20 kB). Every problem is reported, up to
/// `InputFileError.diagnosticLimit`, in file order with its line and the field concerned.
/// SEM files are not read: no SEM almanac with a clear licence was found to test against.
public enum AlmanacFile {
  /// The largest almanac file read, in bytes (1 MiB).
  public static let maximumFileSize = 1 << 20

  /// Reads the almanac at `path`.
  ///
  /// - Throws: `InputFileError.unreadable` when the file cannot be read, `.invalid` naming the
  ///   line and field of every error.
  public static func load(path: String) throws(InputFileError) -> [AlmanacEntry] {
    let file = try InputFile(path: path, expecting: "an almanac file")
    return try read(.file(file), size: file.size, name: path)
  }

  /// Reads an almanac from the bytes of a file called `name` (used only in messages).
  ///
  /// - Throws: `.invalid` with every problem found.
  public static func parse(bytes: some Collection<UInt8>, name: String) throws(InputFileError)
    -> [AlmanacEntry]
  {
    let array = Array(bytes)
    return try read(.memory(array), size: array.count, name: name)
  }

  /// True when `prefix`, the first bytes of a file, look like a YUMA almanac: a line
  /// `******** Week N almanac for PRN-NN ********` before any other text.
  public static func looksLikeAlmanac(prefix: some Collection<UInt8>) -> Bool {
    let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
    guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.isBlank })
    else { return false }
    return YUMABlockHeading(line) != nil
  }

  private static func read(_ source: ByteSource, size: Int, name: String) throws(InputFileError)
    -> [AlmanacEntry]
  {
    guard size <= maximumFileSize else {
      throw InputFileError.tooLarge(name, kind: "almanac file", limit: maximumFileSize)(size)
    }
    var reader = YUMAReader(file: name, source: source)
    return try reader.read()
  }
}

extension StringProtocol {
  /// True when the text holds nothing but spaces and tabs.
  var isBlank: Bool { allSatisfy { $0 == " " || $0 == "\t" } }
}
