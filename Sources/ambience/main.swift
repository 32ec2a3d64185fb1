#if canImport(Glibc)
    import Glibc
#endif

exit(Ambience.main(Array(CommandLine.arguments.dropFirst())))
