"""debugrl's Python half: the pdb debugger bridge, the CPU inference server and the learner."""
