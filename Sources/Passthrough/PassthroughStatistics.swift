/// What a `PassthroughRewriter` has done.
public struct PassthroughStatistics: Hashable, Sendable {
  /// Bytes taken from the receiver.
  public var bytesReceived = 0
  /// Bytes given back to forward.
  public var bytesForwarded = 0
  /// NMEA sentences whose position or motion was rewritten.
  public var sentencesRewritten = 0
  /// UBX frames whose position or motion was rewritten.
  public var framesRewritten = 0
  /// Position-bearing sentences or frames that did not parse (bad checksum, malformed field):
  /// passed unchanged.
  public var unparsedPassed = 0
  /// Frames of other binary protocols that carry a position mockgps does not rewrite (SiRF,
  /// TSIP…): passed unchanged.
  public var unrewrittenPositionFrames = 0

  public init() {}
}
