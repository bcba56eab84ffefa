# Alembic's environment for the records: the app hands over its open connection
# (table_app.records.schema.migrate), so one code path serves SQLite and PostgreSQL.
from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
