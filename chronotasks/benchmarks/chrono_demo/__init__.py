"""chrono_demo: the smallest complete benchmark (two tasks on synthetic images); copy its shape."""
