import InputFiles
import Simulation

/// Reads a YUMA almanac: blocks of a heading line and thirteen `Label: value` lines, one block a
/// satellite; blank lines are skipped.
///
/// A block may give its fields in any order, but each exactly once; a block that ends (at the
/// next heading or the end of the file) without all of them is reported at its last line.
struct YUMAReader {
  let file: String
  let source: ByteSource

  /// The block being read: where it starts, and the values found so far.
  private struct Block {
    let headingLine: Int
    let headingPRN: Int?
    var values: [Double?] = Array(repeating: nil, count: YUMAField.allCases.count)
    var fieldLines: [Int?] = Array(repeating: nil, count: YUMAField.allCases.count)
    var isValid = true
    var lastLine: Int
  }

  private var diagnostics: [InputDiagnostic] = []
  private var entries: [AlmanacEntry] = []
  private var linesOfPRN: [Int: Int] = [:]

  init(file: String, source: ByteSource) {
    self.file = file
    self.source = source
  }

  private var isFull: Bool { diagnostics.count >= InputFileError.diagnosticLimit }

  private mutating func report(_ message: String, at line: Int?) {
    guard !isFull else { return }
    diagnostics.append(InputDiagnostic(InputLocation(file: file, line: line), message))
  }

  mutating func read() throws(InputFileError) -> [AlmanacEntry] {
    var lines = LineReader(source)
    var block: Block?
    do {
      while !isFull, let bytes = try lines.next() {
        let line = String(decoding: bytes, as: UTF8.self)
        let number = lines.lineNumber
        guard !line.isBlank else { continue }
        if let heading = YUMABlockHeading(line) {
          if let finished = block { finish(finished) }
          block = Block(headingLine: number, headingPRN: heading.prn, lastLine: number)
          continue
        }
        guard block != nil else {
          report(
            "expected a heading such as '******** Week 149 almanac for PRN-01 ********', found "
              + RouteText.quoted(line), at: number)
          continue
        }
        read(line, at: number, into: &block)
      }
    } catch {
      switch error {
      case .lineTooLong(let line):
        report(
          "line longer than \(LineReader.maximumLineLength) bytes: expected 'Label: value'",
          at: line)
      case .unreadable(let failure): throw failure
      }
    }
    if let finished = block { finish(finished) }
    if entries.isEmpty, diagnostics.isEmpty {
      report("no satellites: the file is empty; expected a YUMA almanac", at: nil)
    }
    guard diagnostics.isEmpty else { throw .invalid(diagnostics) }
    return entries
  }

  private mutating func read(_ line: String, at number: Int, into block: inout Block?) {
    // Changed through optional chaining, in place: a copy would copy the block's arrays.
    block?.lastLine = number
    guard let colon = line.firstIndex(of: ":") else {
      report("expected 'Label: value', found \(RouteText.quoted(line))", at: number)
      block?.isValid = false
      return
    }
    guard let field = YUMAField(label: line[..<colon]) else {
      report(
        "unknown field \(RouteText.quoted(line[..<colon])); expected one of "
          + YUMAField.allCases.map { "'\($0.label)'" }.joined(separator: ", "), at: number)
      block?.isValid = false
      return
    }
    if let earlier = block?.fieldLines[field.rawValue] ?? nil {
      report("'\(field.label)' given twice in one block, first at line \(earlier)", at: number)
      block?.isValid = false
      return
    }
    block?.fieldLines[field.rawValue] = number
    switch field.value(of: line[line.index(after: colon)...]) {
    case .success(let value): block?.values[field.rawValue] = value
    case .failure(let error):
      report(error.message, at: number)
      block?.isValid = false
    }
  }

  private mutating func finish(_ block: Block) {
    let missing = YUMAField.allCases.filter { block.fieldLines[$0.rawValue] == nil }
    guard missing.isEmpty else {
      let prn = block.headingPRN.map { "PRN-\($0)" } ?? "the satellite"
      report(
        "the block for \(prn) begun at line \(block.headingLine) is cut short: missing "
          + missing.map { "'\($0.label)'" }.joined(separator: ", "), at: block.lastLine)
      return
    }
    guard block.isValid else { return }
    let entry = AlmanacEntry(yuma: block.values.map { $0 ?? 0 })
    let idLine = block.fieldLines[YUMAField.id.rawValue] ?? block.headingLine
    if let heading = block.headingPRN, heading != entry.prn {
      report("'ID' is \(entry.prn) but the block's heading names PRN-\(heading)", at: idLine)
      return
    }
    if let earlier = linesOfPRN[entry.prn] {
      report("PRN \(entry.prn) given twice: its first block begins at line \(earlier)", at: idLine)
      return
    }
    linesOfPRN[entry.prn] = block.headingLine
    entries.append(entry)
  }
}
