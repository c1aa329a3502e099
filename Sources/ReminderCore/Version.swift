/// The version of iCare, shared by the service (`Version` property,
/// `icared --version`) and the CLI (`icarectl --version`). Written by
/// scripts/version from NEWS, the one place the version is set.
public enum ICareVersion {
    public static let current = "0.7.0"
}
