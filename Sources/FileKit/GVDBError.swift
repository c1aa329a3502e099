/// Why a GVDB (dconf database) file could not be read. The caller treats
/// every key as its schema default and logs this once.
public enum GVDBError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case file(FileError)
    /// The file does not start with the GVDB signature ("GVariant").
    case notGVDB
    /// The file was written on a machine of the other byte order.
    case otherByteOrder
    /// A GVDB version other than 0.
    case unsupportedVersion(UInt32)
    /// A header or table is cut short or points outside the file.
    case malformed(String)

    /// One sentence.
    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .notGVDB: return "The file is not a GVDB database (no \"GVariant\" signature)."
        case .otherByteOrder: return "The GVDB database is big-endian, which this reader does not support."
        case .unsupportedVersion(let version): return "The GVDB database has version \(version); only version 0 is known."
        case .malformed(let what): return "The GVDB database is damaged: \(what)."
        }
    }
}
