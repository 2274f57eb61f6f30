@preconcurrency import Glibc
import SystemIO

// Before any thread starts: every thread inherits the mask, so termination signals wait for
// the main thread's sigwait instead of killing the process with the link still in place.
SignalSet.termination.block()
SignalSet.ignoreBrokenPipe()
setvbuf(stdout, nil, _IOLBF, 0)
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
