import Glibc
import InputFiles

/// A file of many receivers for `mockgps run --config`: `{"devices": [{...}, ...]}`, each device
/// an object of `run`'s long options without their dashes, turned here into the arguments `run`
/// takes (`"rate": 10` → `--rate=10`, `"loop": true` → `--loop`, `"position": [51.5, -0.1]` →
/// `--position=51.5,-0.1`). What the options mean is checked by `run`'s own parser.
public struct DeviceConfigFile: Sendable {
  /// One `"key": value` of a device, as `run`'s arguments.
  public struct Setting: Sendable, Hashable {
    /// The key as written (`rate`).
    public var key: String
    /// The value as messages show it: `50`, `"fast"`, `[51.5, -0.1]`, `true`.
    public var shownValue: String
    /// `--rate=50`, `--loop`, or nothing for a flag set to false.
    public var arguments: [String]
    /// The line the value is on.
    public var line: Int
  }

  /// One device object.
  public struct Device: Sendable, Hashable {
    /// The place in `devices`, from 0.
    public var index: Int
    /// The line the object starts on.
    public var line: Int
    /// Its settings in file order.
    public var settings: [Setting]
    /// The `link` it names, if a string.
    public var link: String?
    /// The keys left out for being malformed, refused or given twice (see `problems`).
    public var leftOutKeys: Set<String> = []
    /// False when a setting was left out.
    public var isComplete: Bool { leftOutKeys.isEmpty }

    /// `devices[3] (link /tmp/gps3)`, or `devices[3]` without a link.
    public var label: String {
      "devices[\(index)]" + (link.map { " (link \(JSONNode.printable($0)))" } ?? "")
    }

    /// The arguments of `run` for every setting, in file order.
    public var arguments: [String] { settings.flatMap(\.arguments) }
  }

  /// Something wrong in the file's shape.
  public struct Problem: Sendable, Hashable {
    /// One line, naming the device and the key.
    public var diagnostic: InputDiagnostic
    /// The place in `devices` of the device it is about; nil for the file's top level.
    public var deviceIndex: Int?
  }

  /// The devices in file order, those with a malformed setting marked incomplete.
  public var devices: [Device]
  /// What is wrong in the file's shape, in file order.
  public var problems: [Problem]

  /// Reads the file at `path` (see `parse`).
  ///
  /// - Throws: `.unreadable` (exit 66) or `.invalid` for a file that is not JSON at all.
  public static func load(
    path: String, flags: Set<String>, fileKeys: Set<String>, refusal: (String) -> String?
  ) throws(InputFileError) -> DeviceConfigFile {
    try parse(
      bytes: ScenarioFile.readBytes(path: path, kind: "config file"), name: path,
      flags: flags, fileKeys: fileKeys,
      baseDirectory: ScenarioFile.directory(of: path), refusal: refusal)
  }

  /// Reads a config file from its bytes, collecting every problem of shape rather than stopping
  /// at the first.
  ///
  /// - Parameters:
  ///   - flags: Keys that take `true` or `false` (`loop`).
  ///   - fileKeys: Keys naming input files (`route`); relative paths are resolved against
  ///     `baseDirectory`, the folder of the config file.
  ///   - refusal: Why a device cannot have a key (unknown, or not a device's), or nil when it
  ///     can; checked before its value.
  /// - Throws: `.invalid` when the text is not JSON, with its line and column.
  public static func parse(
    bytes: [UInt8], name: String, flags: Set<String>, fileKeys: Set<String>,
    baseDirectory: String, refusal: (String) -> String? = { _ in nil }
  ) throws(InputFileError) -> DeviceConfigFile {
    let root = try JSONParser.parse(bytes, file: name)
    var file = DeviceConfigFile(devices: [], problems: [])
    func problem(_ node: JSONNode, _ path: String, _ message: String, device: Int? = nil) {
      file.problems.append(
        Problem(
          diagnostic: InputDiagnostic(
            InputLocation(file: name, line: node.line, jsonPath: path), message),
          deviceIndex: device))
    }
    guard case .object(let members) = root.value else {
      problem(root, "", "expected an object {\"devices\": [...]}, got \(root.shortDescription)")
      return file
    }
    for member in members where member.key != "devices" {
      problem(member.value, JSONNode.printable(member.key), "unknown key (expected devices)")
    }
    guard let devices = members.first(where: { $0.key == "devices" })?.value else {
      problem(root, "", "missing key 'devices' (an array of device objects)")
      return file
    }
    guard case .array(let elements) = devices.value, !elements.isEmpty else {
      problem(
        devices, "devices", "expected an array of device objects, got \(description(devices))")
      return file
    }
    for (index, element) in elements.enumerated() {
      guard case .object(let members) = element.value else {
        problem(
          element, "devices[\(index)]", "expected an object, got \(element.shortDescription)",
          device: index)
        continue
      }
      var device = Device(index: index, line: element.line, settings: [], link: nil)
      if let link = members.first(where: { $0.key == "link" }),
        case .string(let path) = link.value.value
      {
        device.link = path
      }
      var seen: Set<String> = []
      for member in members {
        let key = JSONNode.printable(member.key)
        let at = "\(device.label): \(key)"
        guard seen.insert(member.key).inserted else {
          problem(
            member.value, device.label, "key '\(key)' given more than once", device: index)
          device.leftOutKeys.insert(member.key)
          continue
        }
        if let reason = refusal(member.key) {
          problem(member.value, at, reason, device: index)
          device.leftOutKeys.insert(member.key)
          continue
        }
        switch setting(member, flag: flags.contains(member.key)) {
        case .success(var setting):
          if fileKeys.contains(member.key), let path = setting.arguments.first {
            setting.arguments = [resolve(path, against: baseDirectory, key: member.key)]
          }
          device.settings.append(setting)
        case .failure(let message):
          problem(member.value, at, message.message, device: index)
          device.leftOutKeys.insert(member.key)
        }
      }
      file.devices.append(device)
    }
    return file
  }

  private struct Refusal: Error { var message: String }

  /// The arguments for one member, or why its value cannot be one.
  private static func setting(_ member: JSONNode.Member, flag: Bool) -> Result<Setting, Refusal> {
    let node = member.value
    let shown = description(node)
    let option = "--" + member.key
    if flag {
      guard case .bool(let on) = node.value else {
        return .failure(Refusal(message: "expected true or false, got \(shown)"))
      }
      return .success(
        Setting(key: member.key, shownValue: shown, arguments: on ? [option] : [], line: node.line))
    }
    let text: String
    switch node.value {
    case .string(let string) where string.utf8.contains(0):
      return .failure(Refusal(message: nulRefusal(shown)))
    case .string(let string): text = string
    case .number(let written, _): text = written
    case .array(let elements):
      var parts: [String] = []
      for element in elements {
        switch element.value {
        case .number(let written, _): parts.append(written)
        case .string(let string) where string.utf8.contains(0):
          return .failure(Refusal(message: nulRefusal(shown)))
        case .string(let string): parts.append(string)
        default:
          return .failure(
            Refusal(message: "expected an array of numbers or strings, got \(shown)"))
        }
      }
      guard !parts.isEmpty else {
        return .failure(Refusal(message: "expected a non-empty array, got []"))
      }
      text = parts.joined(separator: ",")
    default:
      return .failure(Refusal(message: "expected a string, a number or an array, got \(shown)"))
    }
    return .success(
      Setting(
        key: member.key, shownValue: shown, arguments: ["\(option)=\(text)"], line: node.line))
  }

  /// Why a value holding a NUL is refused: `run`'s arguments, like every path and name of the
  /// system, end at one, so the value would be cut there (a link made at `/tmp/a` for
  /// `"/tmp/a\u0000b"`).
  private static func nulRefusal(_ shown: String) -> String {
    "expected text without a NUL character, got \(JSONNode.printable(shown))"
  }

  /// A value as a message shows it: arrays with their elements (`[51.5, -0.1]`).
  static func description(_ node: JSONNode) -> String {
    guard case .array(let elements) = node.value else { return node.shortDescription }
    let shown = elements.prefix(4).map { description($0) }.joined(separator: ", ")
    return "[\(shown)\(elements.count > 4 ? ", …" : "")]"
  }

  /// `--route=leg.gpx` with the path made relative to the config file's folder.
  private static func resolve(_ argument: String, against directory: String, key: String)
    -> String
  {
    let prefix = "--\(key)="
    let path = String(argument.dropFirst(prefix.count))
    guard !path.isEmpty, !path.hasPrefix("/"), directory != "." else { return argument }
    return prefix + directory + "/" + path
  }
}
