import DeviceRuntime
import Glibc
import InputFiles
import RouteFiles
import Servers
import Simulation
import SystemIO

/// Loads the route file a control request names, with the rights of whoever asked
/// (`ControlRequester`): a path the requester may not read is refused with the same words as
/// a path that does not exist, so that a client cannot probe for files it cannot see.
enum RouteLoading {
  /// The route at `path`, or the refusal to send.
  static func load(path: String, for requester: ControlRequester, log: Log)
    -> Result<Route, Refusal>
  {
    switch requester {
    case .process:
      return Result { () throws(InputFileError) in try RouteFile.load(path: path) }
        .mapError { Refusal("\($0)") }
    case .socketPeer(let peer):
      guard path.hasPrefix("/") else { return .failure(.relative(path)) }
      do {
        return .success(
          try FileAccessIdentity.with(rightsOf: peer) { () throws(Refusal) in
            try loadIfReadable(path)
          })
      } catch {
        switch error {
        case .identity(let reason):
          // The daemon cannot take the client's rights (no CAP_SETUID/CAP_SETGID, or not
          // root): it opens nothing for it, and says so in its log.
          log.warning("route for \(peer): \(reason)")
          return .failure(.unreadable(path))
        case .body(let refusal): return .failure(refusal)
        }
      }
    case .panel(let folder):
      guard let folder else {
        return .failure(
          Refusal(
            "the panel loads route files only from the folder named with --panel-files "
              + "at start, and none was"))
      }
      guard path.hasPrefix("/") else { return .failure(.relative(path)) }
      return Result { () throws(Refusal) in try loadBeneath(folder, path: path) }
    }
  }

  /// Loads `path` when it can be opened with the current rights, without following /proc's
  /// magic links (whose targets skip the permission checks of the folders above them); a
  /// missing path, one that may not be read and one through a magic link give the same
  /// refusal.
  private static func loadIfReadable(_ path: String) throws(Refusal) -> Route {
    let descriptor = FileAccessIdentity.openForReadingWithoutMagicLinks(path)
    return try load(opened: descriptor, error: errno, path: path)
  }

  /// Loads `path` from beneath `folder` only: the rest of the path after the folder (as it was
  /// spelled or resolved when it was opened, compared as text) is opened beneath the folder's
  /// descriptor, every step of it, links included, inside (`RESOLVE_BENEATH`), so that no `..`,
  /// no link out and no link swapped in meanwhile (the folder's own name included) leads out. A
  /// link with an absolute target is refused even when it points inside. Anything else is
  /// refused as a missing file is.
  private static func loadBeneath(_ folder: OpenFolder, path: String) throws(Refusal) -> Route {
    guard let relative = folder.relativePath(of: path) else { throw .unreadable(path) }
    let descriptor = folder.openForReading(relative)
    return try load(opened: descriptor, error: errno, path: path)
  }

  /// Loads the route of `descriptor` (-1 when the open failed with `error`), which it closes.
  private static func load(opened descriptor: Int32, error: Int32, path: String)
    throws(Refusal) -> Route
  {
    guard descriptor >= 0 else {
      if [ENOENT, EACCES, EPERM, ENOTDIR, ELOOP, ENAMETOOLONG, EXDEV].contains(error) {
        throw .unreadable(path)
      }
      throw Refusal("cannot open '\(path)': \(String(cString: strerror(error)))")
    }
    defer { close(descriptor) }
    do {
      return try RouteFile.load(descriptor: descriptor, path: path)
    } catch {
      throw Refusal("\(error)")
    }
  }

  /// Why a route was not loaded, as the reply says it after `route: `.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// A path that does not exist or that the requester may not read.
    static func unreadable(_ path: String) -> Refusal {
      Refusal("cannot read '\(path)': no such file, or not readable by the requester")
    }

    /// A relative path, which only the requester's side can resolve.
    static func relative(_ path: String) -> Refusal {
      Refusal(
        "'\(path)' is a relative path; send an absolute one (mockgps ctl resolves it against "
          + "your working folder)")
    }
  }
}
