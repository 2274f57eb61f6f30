extension ReceiverProfile {
  /// How long the chip takes from a command's last byte to the first byte of its answer, on
  /// top of the line time of both: 2 ms for every family.
  ///
  /// No interface description gives a figure: u-blox's (u-blox 8 / M8 receiver description,
  /// ZED-F9P interface description, UBX-ACK) says only that an ACK or NAK is sent "as soon as
  /// possible but at least within one second"; MediaTek's PMTK packet manual and SiRF's binary
  /// protocol reference say nothing. A small figure keeps an answer after its command, as on
  /// hardware, without slowing the configuration sequences of host software, which wait up to
  /// hundreds of milliseconds for an answer.
  public var commandProcessingNanoseconds: Int64 { 2_000_000 }
}
