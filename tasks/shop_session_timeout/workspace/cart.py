"""Shopping cart views; the cart lives in the visitor's session."""


def add_to_cart(request, sku, quantity=1):
    if quantity < 1:
        raise ValueError(f"quantity must be at least 1, got {quantity}")
    cart = request.session.data.setdefault("cart", {})
    cart[sku] = cart.get(sku, 0) + quantity
    return dict(cart)


def view_cart(request):
    return dict(request.session.data.get("cart", {}))
