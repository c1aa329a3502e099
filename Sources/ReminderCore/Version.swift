/// The version of iCare, shared by the service (`Version` property,
/// `icared --version`) and the CLI (`icarectl --version`).
public enum ICareVersion {
    public static let current = "0.1.0"
}
