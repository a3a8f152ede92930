"""Translation catalogs, one module per page (plus `common`). See ui/i18n.py."""
