# A received file of 4,000 cases (about 1 MB): received-good.json's
# first reproducer with its cases repeated (tests/noroot/received.sh).
.results = [.results[0] | .cases = [range(4000) as $i
	| .cases[$i % 3] | .name = "c\($i)"]]
