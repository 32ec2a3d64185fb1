import AmbienceCommandLine
import AmbienceDaemon

#if canImport(Glibc)
    import Glibc
#endif

// `ambience run` becomes this program: the daemon and nothing else, so that what the unit keeps
// in memory is what it runs (no plot, probe reports, TOML writer or other programs' settings).
exit(runCommand.main(Arguments.programWords))
