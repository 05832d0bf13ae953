"""One confirmation experiment per file; each registers itself with
:func:`traindoc.confirm.registry.experiment`. Imported in name order by
:func:`traindoc.confirm.registry.load_all`."""
