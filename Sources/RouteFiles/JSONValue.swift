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

  /// Decodes any value. A number no `Double` holds (`1e400`, 400 digits) becomes NaN, for the
  /// reader to refuse as not finite; any other error is the value's own (an invalid string),
  /// not the type mismatch of the last kind tried.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
      return
    }
    do {
      self = .bool(try container.decode(Bool.self))
      return
    } catch DecodingError.typeMismatch {}
    do {
      self = .number(try container.decode(Double.self))
      return
    } catch DecodingError.typeMismatch {
    } catch {
      self = .number(.nan)
      return
    }
    do {
      self = .string(try container.decode(String.self))
      return
    } catch DecodingError.typeMismatch {}
    do {
      self = .array(try container.decode([JSONValue].self))
      return
    } catch DecodingError.typeMismatch {}
    self = .object(try container.decode([String: JSONValue].self))
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
