"""Rules for PyFlink's Table API and SQL (pyflink.table)."""
