#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's socket calls under names that the methods of the same names do not hide.
let systemSocket = socket
let systemConnect = connect
let systemAccept = accept
let systemShutdown = shutdown
let systemClose = close
