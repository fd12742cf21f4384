"""The corpus of real applications BugHunt is measured on (our scripts and descriptions only).

Nothing in the packages imports this folder and CI never runs it: `python -m corpus run` checks out
each application at its pinned commit, plants its bugs and prints what the explorer found.
"""
