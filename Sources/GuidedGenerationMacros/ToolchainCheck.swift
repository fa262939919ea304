#if GUIDED_MISSING_SWIFT_SYNTAX
#error("""
    The @Generable macro builds against the toolchain's own swift-syntax (usr/lib/swift/host next \
    to the compiler, holding SwiftSyntax.swiftmodule), and it was not found. Set \
    GUIDED_SWIFT_HOST_LIBRARIES to that folder of a Swift 6 toolchain.
    """)
#endif
