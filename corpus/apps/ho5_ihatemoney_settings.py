"""ihatemoney settings for the corpus (loaded through IHATEMONEY_SETTINGS_FILE_PATH): the database in
the checkout, session cookies over plain loopback HTTP, mail kept on the machine."""

import os

SQLALCHEMY_DATABASE_URI = os.environ["CORPUS_DATABASE_URI"]
SECRET_KEY = "corpus-not-secret"
# the default sends the session cookie over HTTPS only: over http://127.0.0.1 no login would hold
SESSION_COOKIE_SECURE = False
ACTIVATE_DEMO_PROJECT = True
ALLOW_PUBLIC_PROJECT_CREATION = True
MAIL_SUPPRESS_SEND = True
MAIL_SERVER = "127.0.0.1"
MAIL_PORT = 9
