import Foundation
import GuidedKernels

/// The instruction sets the model's kernels are written for. One build holds every variant its
/// architecture can run; the fastest one the CPU reports is chosen when a model is loaded, so a
/// binary built anywhere runs at full speed on any CPU of its architecture.
public enum KernelVariant: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Plain loops that the compiler vectorizes for the architecture's baseline (SSE2, NEON).
    case portable
    /// AVX2, FMA and F16C (x86-64: Intel since Haswell, AMD since Zen).
    case avx2
    /// AVX-512 F, BW, VL and VNNI besides AVX2 (x86-64: Intel since Ice Lake and Cascade Lake, AMD
    /// since Zen 4): the integer products in VNNI's `vpdpbusd`.
    case avx512
    /// NEON (arm64).
    case neon

    private var number: Int32 {
        switch self {
        case .portable: Int32(GUIDED_KERNELS_PORTABLE)
        case .avx2: Int32(GUIDED_KERNELS_AVX2)
        case .avx512: Int32(GUIDED_KERNELS_AVX512)
        case .neon: Int32(GUIDED_KERNELS_NEON)
        }
    }

    /// Whether this build has the variant and this CPU runs it.
    public var isSupported: Bool {
        guided_kernels_supported(number) != 0
    }

    /// The variants this build has and this CPU runs, the fastest first.
    public static var supported: [KernelVariant] {
        [.avx512, .avx2, .neon, .portable].filter(\.isSupported)
    }

    /// The variant models use unless told otherwise: the one that the environment variable
    /// `GUIDED_KERNELS` names (`portable`, `avx2`, `avx512` or `neon`) when this CPU runs it, else
    /// the fastest supported one.
    public static let preferred: KernelVariant = {
        if let name = ProcessInfo.processInfo.environment["GUIDED_KERNELS"], let variant = KernelVariant(rawValue: name),
            variant.isSupported
        {
            return variant
        }
        return supported.first ?? .portable
    }()

    /// This variant's table of kernels, or the portable one when it is not supported here.
    var table: UnsafePointer<GuidedKernelTable> {
        guided_kernel_table(isSupported ? number : Int32(GUIDED_KERNELS_PORTABLE))
    }

    public var description: String { rawValue }
}
