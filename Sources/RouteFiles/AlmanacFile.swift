import Simulation

/// Reads GPS almanacs: YUMA and SEM files.
///
/// PLACEHOLDER (issue 8 contract): reads nothing yet; the almanac helper replaces this file.
public enum AlmanacFile {
  /// Reads the almanac at `path`.
  ///
  /// - Throws: `InputFileError.unreadable` when the file cannot be read, `.invalid` naming the
  ///   line and field of every error.
  public static func load(path: String) throws(InputFileError) -> [AlmanacEntry] {
    []
  }
}
