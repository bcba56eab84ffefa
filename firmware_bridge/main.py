# Runs at power-up on the Pico.
import controller

controller.run()
