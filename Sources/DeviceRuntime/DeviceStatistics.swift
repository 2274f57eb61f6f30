/// Counters of what happened on the emulated device, one schema for every source (a
/// simulated receiver, a replay, a passthrough): its `Transmitter` counts what it sent, and
/// the device what clients did. A counter a source never moves stays 0 (a replay never drops an
/// epoch for unread data, a simulated chip never waits for a client).
public struct DeviceStatistics: Hashable, Sendable {
  /// Epochs written to a client in full.
  public var epochsSent = 0
  /// Packets (sentences, binary frames) of those epochs.
  public var packetsSent = 0
  /// Epochs left out, whole or in part, because no client had the device open.
  public var epochsWithoutClient = 0
  /// Bytes left out that way (counted by a replay, whose epochs are read anyway, and by a
  /// passthrough, whose receiver sends anyway).
  public var bytesWithoutClient = 0
  /// Epochs dropped whole because the client had not read the earlier ones (a UART overrun).
  public var epochsOverrun = 0
  /// Epochs that started too late: a simulated receiver skips them (the emulator woke too
  /// late: a pause, a loaded machine, a forward step of the clock); a replay sends them late
  /// (started more than `ReplayLoop.lateToleranceNanoseconds` after they were due).
  public var epochsLate = 0
  /// The latest start of an epoch sent late, in nanoseconds after it was due (a replay's).
  public var largestLatenessNanoseconds: Int64 = 0
  /// Times a write waited because the client had not read what came before (the queue of the
  /// pseudo-terminal was full): a replay waits for a client, never drops; once an epoch (once
  /// a write, for epochs an unpaced replay joins into one).
  public var clientWaits = 0
  /// Bytes the client's queue had no room for, dropped while the rest went on (a passthrough's
  /// `Transmitter.Admission.dropBytes`).
  public var bytesDropped = 0
  /// Epochs whose burst was cut short, the rest dropped: it fell behind its pacing, a write
  /// failed (the client left, or its queue filled) or the emulator stopped midway; for a
  /// passthrough, an epoch some of whose bytes the client's full queue did not take.
  public var burstsCut = 0
  /// Of `burstsCut`, those that fell behind their pacing (a timing fault, as `epochsLate`;
  /// the others were cut by a client leaving, a full queue, a restart or the stop).
  public var burstsFellBehind = 0
  /// Epochs due without a client whose rest was written in full to a client that opened in
  /// the middle of their burst (counted without a client too, not in `epochsDue`'s sum).
  public var epochRestsSent = 0
  /// Epochs whose time came: for a live receiver, each is counted in exactly one of sent,
  /// without a client, overrun, late or cut short (exact once the emulator has stopped; while
  /// it runs, read a moment apart from the others); for a replay, the log's epochs begun; for a
  /// passthrough, the epochs its receiver's bytes were grouped into. `status` calls it `epoch`.
  public var epochsDue = 0
  /// Times the system clock was found set back and the epoch grid planned again.
  public var clockStepsBack = 0
  /// Times the device went from no client to at least one.
  public var connections = 0
  /// Sentences clients wrote that were handed to the command handler.
  public var commandsReceived = 0
  /// Commands whose last byte arrived while the chip booted after a restart: lost, unanswered.
  public var commandsLostWhileBooting = 0
  /// Replies to commands, and power-up messages, written to the device.
  public var repliesSent = 0
  /// Replies dropped because those waiting for the line filled the chip's transmit buffer (a
  /// client polling faster than the line carries the answers; `PendingReplies`).
  public var repliesDropped = 0
  /// The emulator's own sentences that came back as echo and were ignored.
  public var echoesIgnored = 0
  /// Bytes clients wrote that were neither part of a sentence nor of a valid UBX frame (a bad
  /// UBX checksum, noise), dropped.
  public var clientBytesDiscarded = 0
  /// Sentences clients wrote whose checksum was missing or wrong, dropped as a receiver does.
  public var clientSentencesRejected = 0
  /// UBX frames clients wrote whose checksum failed: dropped unanswered, as the chip does
  /// (their bytes count in `clientBytesDiscarded` too).
  public var ubxChecksumErrors = 0
  /// UBX CFG messages clients wrote with a payload length the message cannot have: NAK'd.
  public var ubxLengthErrors = 0
  /// RTCM 3 frames clients wrote whose CRC failed (their bytes count in `clientBytesDiscarded`
  /// too); the F9P reports each with RXM-RTCM when that output is on.
  public var rtcmChecksumErrors = 0
  /// Bytes written to the device.
  public var bytesSent = 0
  /// Bytes clients wrote, as the chip received them.
  public var clientBytesReceived = 0
  /// Times the I/O thread woke up: it sleeps while no client opens, closes or writes.
  public var ioWakeups = 0

  /// Creates zeroed counters.
  public init() {}
}
