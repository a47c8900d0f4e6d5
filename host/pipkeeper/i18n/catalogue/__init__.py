"""The catalogues, one module per language (see pipkeeper.i18n)."""
