"""Builds the JSON-ready payload for GET /products."""

from paging import paginate

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


def parse_page_params(params):
    """Read `page` and `per_page` from a query-string dict, clamping per_page to the allowed range."""
    try:
        number = int(params.get("page", 1))
        size = int(params.get("per_page", DEFAULT_PAGE_SIZE))
    except (TypeError, ValueError):
        raise ValueError("page and per_page must be integers")
    return number, min(max(size, 1), MAX_PAGE_SIZE)


def list_products(catalog, params):
    number, size = parse_page_params(params)
    products = catalog.query(tag=params.get("tag"))
    page = paginate(products, number, size)
    links = {}
    if page.has_next:
        links["next"] = f"/products?page={page.number + 1}&per_page={page.size}"
    if page.has_previous:
        links["prev"] = f"/products?page={page.number - 1}&per_page={page.size}"
    return {
        "items": [{"sku": p.sku, "name": p.name, "price_cents": p.price_cents} for p in page.items],
        "page": page.number,
        "total_pages": page.total_pages,
        "total_items": page.total_items,
        "links": links,
    }
