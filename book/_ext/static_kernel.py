"""Kernel start-up of the book's build: figures display as precomputed static widgets.

``dpnotes_sphinx`` points ``PYTHONSTARTUP`` here, so every kernel the build starts
(IPython runs that file at start-up) registers the static display of
``dpnotes.widgets.spec.Figure``; anywhere else figures display live.
"""


def _register():
    from IPython import get_ipython

    from dpnotes.widgets.display import register_static_display

    register_static_display(get_ipython())


_register()
del _register
