import Glibc
import Localization

// icare: the app's window (see ICareApp). The texts in the person's language first.
Localization.setUp()
let app = ICareApp()
exit(app.run())
