import Simulation
import UBX

/// Something the emulator must do because a client wrote a command to the receiver.
///
/// Handlers return effects rather than acting, so each can be tested as plain values and the
/// emulator applies them in order.
public enum ReceiverEffect: Hashable, Sendable {
  /// Send these bytes to the client: an acknowledgement, a version string, a polled message.
  case reply([UInt8])
  /// Send this message of the last epoch the chip computed: a UBX NAV message (a poll with an
  /// empty payload), or an NMEA sentence by its CFG-MSG type (an NMEA poll, `NMEAPoll`). The
  /// emulator holds the epoch's fix, the profile's encoder builds the message
  /// (`ReceiverEncoder.reply(_:for:)`).
  case replyFromEpoch(UBXMessageType)
  /// Start epochs at this rate.
  case setRate(CadencePlan)
  /// Pace output at this line speed.
  case setBaud(BytePacing)
  /// Send these messages from the next epoch on (NMEA sentences, UBX messages, their rates).
  case setOutput(OutputSelection)
  /// Write NMEA in this dialect from the next epoch on (its version, talkers, GSV signals and
  /// limits); a `setTracking` follows, since the dialect decides which systems NMEA can list.
  case setDialect(NMEADialect)
  /// Track these satellite systems from the next epoch on, of those the current dialect can
  /// write, and of SBAS (when among them) the satellites of these PRNs: the sky, the solution
  /// and every sentence and message listing satellites hold only their satellites.
  case setTracking(Set<Constellation>, sbasPRNs: Set<Int>)
  /// What the chip's ports have received, for the periodic MON-COMMS from the next epoch on
  /// (a u-blox handler sends it after each message while MON-COMMS goes out).
  case setPortTraffic(UBXPortTraffic)
  /// Take these corrections from a reference station (RTCM 3 a client wrote) into the rover's
  /// solution, received now (`RTKRover`).
  case useCorrections(CorrectionInput)
  /// Run the rover with these settings from the next epoch on.
  case setRover(RTKSettings)
  /// Run the reference station in this time mode from now on (a survey-in starts now).
  case setBase(BaseSettings)
  /// Restart the chip: its output stops, the power-up sentences come again when it powers up,
  /// and it has no fix for a time to first fix that depends on the kind of start.
  case restart(ReceiverRestart)
}
