.PHONY: test bench

test:
	python3 -m pytest

bench:
	python3 -m table_app.bench
