import AmbienceCommandLine

#if canImport(Glibc)
    import Glibc
#endif

exit(Ambience.main(Arguments.programWords))
