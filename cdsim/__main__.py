from cdsim.cli import main

main()
