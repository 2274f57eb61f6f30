import Glibc

/// The whole program: parse, dispatch, and return the exit code.
enum CommandLineTool {
  static func main(_ arguments: [String]) -> Int32 {
    let command: Command
    do {
      command = try Command.parse(arguments)
    } catch {
      RunCommand.writeError(error.report)
      return ExitCode.usage
    }
    switch command {
    case .help(let topic):
      print(Help.page(topic), terminator: "")
      return ExitCode.success
    case .version:
      print(Version.text)
      return ExitCode.success
    case .manPage:
      print(ManPage.render(), terminator: "")
      return ExitCode.success
    case .run(let options):
      return RunCommand.execute(options)
    case .devices:
      return DevicesCommand.execute()
    case .profiles:
      return ProfilesCommand.execute()
    case .check(let path):
      return CheckCommand.execute(path: path)
    case .record(let options):
      return RecordCommand.execute(options)
    case .ctl(let options):
      return CtlCommand.execute(options)
    }
  }
}
