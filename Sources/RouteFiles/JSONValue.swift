import FoundationEssentials

/// Any JSON value, decoded by FoundationEssentials' `JSONDecoder`, to be walked with paths
/// (route files, and the control protocol's request lines).
public enum JSONValue: Decodable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Parses JSON text, or describes why it is not JSON (with the line and column when the
  /// decoder gives them).
  public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONDecodingFailure> {
    do {
      return .success(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
    } catch let error as DecodingError {
      guard case .dataCorrupted(let context) = error else {
        return .failure(JSONDecodingFailure(message: "\(error)"))
      }
      let detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
      return .failure(
        JSONDecodingFailure(
          message: detail.split(whereSeparator: \.isNewline).joined(separator: " ")))
    } catch {
      return .failure(JSONDecodingFailure(message: "\(error)"))
    }
  }

  /// A short name of the value's kind, for messages.
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The member `key` of an object; nil for a missing key or a value that is not an object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }
}

/// Why bytes are not JSON.
public struct JSONDecodingFailure: Error {
  /// One line saying what is wrong.
  public var message: String
}
