print("work in progress")
