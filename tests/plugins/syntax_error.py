def balance(view, params):
    return None

def broken(view:
    pass
