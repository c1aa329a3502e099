extension AppRig {
    /// The accessibility side, in python3 with gir1.2-atspi-2.0:
    /// `count` (wakes the registry), `tree` (the app's windows as JSON: every
    /// visible element with its role, name, description and place), `press ROLE NAME [WITHIN]`
    /// (the element's first action: "click" for buttons, "toggle" for switches; WITHIN names an ancestor), `value ROLE NAME V`
    /// (sets a spin button or slider through the Value interface),
    /// `focus ROLE NAME` (gives it the keyboard focus).
    static let script = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi

    desktop = Atspi.get_desktop(0)

    def apps():
        for i in range(desktop.get_child_count()):
            a = desktop.get_child_at_index(i)
            if a is not None and a.get_name() == 'icare':
                yield a

    def visible(a):
        return a.get_state_set().contains(Atspi.StateType.VISIBLE)

    def walk(a, out):
        try:
            if a is None or not visible(a):
                return
            try:
                e = a.get_extents(Atspi.CoordType.WINDOW)
                place = {'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height}
            except Exception:
                place = {}  # no Component interface (a GtkStackPage): no place, its children still count
            if place and place['w'] <= 0 and place['h'] <= 0:
                return  # not on screen: a stack's other pages
            item = dict(place, role=a.get_role_name(), name=a.get_name() or '', description=a.get_description() or '')
            states = a.get_state_set()
            if item['role'] in ('check box', 'toggle button', 'radio button'):
                item['checked'] = states.contains(Atspi.StateType.CHECKED)
            elif states.contains(Atspi.StateType.PRESSED):
                item['checked'] = True  # a toggle button (GTK 4.8 gives it the push button role) that is down
            item['sensitive'] = states.contains(Atspi.StateType.SENSITIVE)
            item['focusable'] = states.contains(Atspi.StateType.FOCUSABLE)
            item['focused'] = states.contains(Atspi.StateType.FOCUSED)
            if 'Value' in a.get_interfaces():
                item['value'] = a.get_value_iface().get_current_value()
            out.append(item)
            for i in range(a.get_child_count()):
                walk(a.get_child_at_index(i), out)
        except Exception:
            pass  # a node that went while the tree was read: the caller reads again

    def find(a, role, name):
        if a is None:
            return None
        try:
            if a.get_role_name() == role and a.get_name() == name and visible(a):
                return a
            for i in range(a.get_child_count()):
                f = find(a.get_child_at_index(i), role, name)
                if f is not None:
                    return f
        except Exception:
            return None
        return None

    def element(role, name, within=None):
        for app in apps():
            scopes = [app] if within is None else named(app, within)
            for scope in scopes:
                f = find(scope, role, name)
                if f is not None:
                    return f
        sys.exit('no visible %s named %r%s' % (role, name, ' in %r' % within if within else ''))

    def named(a, name, out=None):
        out = [] if out is None else out
        try:
            if a.get_name() == name and visible(a):
                out.append(a)
            for i in range(a.get_child_count()):
                named(a.get_child_at_index(i), name, out)
        except Exception:
            pass
        return out

    command = sys.argv[1]
    if command == 'count':
        print(desktop.get_child_count())
    elif command == 'tree':
        windows = []
        for app in apps():
            for j in range(app.get_child_count()):
                out = []
                walk(app.get_child_at_index(j), out)
                if out:
                    windows.append(out)
        json.dump(windows, sys.stdout)
    elif command == 'press':
        e = element(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
        # A menu button is two elements of one name (GtkMenuButton and its inner toggle): the first with an action.
        while e.get_n_actions() == 0:
            parent = e
            e = find(parent.get_child_at_index(0), sys.argv[2], sys.argv[3]) if parent.get_child_count() > 0 else None
            if e is None:
                sys.exit('no action on %s %r' % (sys.argv[2], sys.argv[3]))
        if not e.do_action(0):
            sys.exit('the action failed')
    elif command == 'value':
        e = element(sys.argv[2], sys.argv[3])
        if not e.get_value_iface().set_current_value(float(sys.argv[4])):
            sys.exit('the value was not taken')
    elif command == 'focus':
        e = element(sys.argv[2], sys.argv[3])
        if not e.get_component_iface().grab_focus():
            sys.exit('no focus')
    """#
}
