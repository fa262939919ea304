#if canImport(ImageIO)
import ImageIO
#else
/// How an image is to be turned for display: the eight orientations of the EXIF `Orientation`
/// tag, with its values (1 is upright). This is the form of ImageIO's type for platforms that
/// lack ImageIO; it is what an image attachment's `orientation` is given as.
public enum CGImagePropertyOrientation: UInt32, Sendable, Hashable, CaseIterable {
    /// Upright, as stored (EXIF 1).
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored = 2
    /// Turned 180° (EXIF 3).
    case down = 3
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored along the diagonal from top left (EXIF 5).
    case leftMirrored = 5
    /// Turned 90° clockwise for display (EXIF 6).
    case right = 6
    /// Mirrored along the diagonal from top right (EXIF 7).
    case rightMirrored = 7
    /// Turned 90° counterclockwise for display (EXIF 8).
    case left = 8
}
#endif
