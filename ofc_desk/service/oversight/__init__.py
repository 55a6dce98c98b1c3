"""The floor supervisor's view of the room: every open table followed, and the floor's decisions and
seeds."""
