// (work in progress)
