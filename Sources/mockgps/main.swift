@preconcurrency import Glibc
import SystemIO

// Before anything is opened: a supervisor may start us with standard output or error closed, and
// the pseudo-terminal's master would then take descriptor 1 and receive the log.
StandardDescriptors.ensureOpen()
SignalSet.ignoreBrokenPipe()
setvbuf(stdout, nil, _IOLBF, 0)
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
