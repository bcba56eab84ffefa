.PHONY: test bench drill

test:
	python3 -m pytest

bench:
	python3 -m table_app.bench

# the long power-cut drill (README, "Reliability"): 1,000 cuts, a few minutes; needs FUSE
drill:
	python3 tests/powercut.py --cuts 1000
