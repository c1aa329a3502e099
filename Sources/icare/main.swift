import Glibc
import Localization

// icare: the app's window (see ICareApp). The texts in the person's language first.
BenchHook.mark("main")
Localization.setUp()
let app = ICareApp()
exit(app.run())
