"""Mighty Trees views: the card table scene, the play dashboard, the walkthrough and the card-odds lesson."""
