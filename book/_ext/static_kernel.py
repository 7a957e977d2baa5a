"""Kernel start-up of the book's build: figures display as precomputed static widgets.

``dpnotes_sphinx`` points ``PYTHONSTARTUP`` here, so every kernel the build starts
(IPython runs that file at start-up) registers the static display of
``dpnotes.widgets.spec.Figure``; anywhere else figures display live.
"""


def _register():
    from IPython import get_ipython

    from dpnotes.widgets.display import register_static_display

    shell = get_ipython()
    if shell is not None:  # None: imported outside a kernel (pytest's doctest collection), nothing to register
        register_static_display(shell)


_register()
del _register
