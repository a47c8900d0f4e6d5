"""`python -m pipkeeper` is the same as the `pipkeeper` command."""

from pipkeeper.cli import main

if __name__ == "__main__":
    main(prog_name="pipkeeper")
