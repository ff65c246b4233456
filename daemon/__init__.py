"""The running program, one package per step of the data flow: cli/ and web/ are its faces, runtime/
runs the loop, tick/ is what happens on its own, host_actions/ what the host makes happen, drafts/
what goes out, notify/ tells the host, settings/ is what the host wrote, store/ what is kept, forum/
the board; offline/ never runs in production. Imports point that way (pyproject.toml, import-linter)."""
