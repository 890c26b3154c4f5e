"""``ronda-solve serve``: the analysis board, the game viewer and the
puzzle trainer in the browser (docs/web.md). ``app.py`` builds the ASGI
app, ``api.py`` the JSON API, ``pool.py`` runs the searches in worker
processes, ``tasks.py`` is what they run, ``boards.py`` what the pages
draw; ``static/`` holds the pages (plain HTML, CSS and JavaScript)."""
