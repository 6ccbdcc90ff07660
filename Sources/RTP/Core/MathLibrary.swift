// `Double.rounded()` calls libm, which Swift links only through the Glibc module: importing it
// here (and nowhere public) links libm into every user of this module.
#if canImport(Glibc)
    internal import Glibc
#endif
