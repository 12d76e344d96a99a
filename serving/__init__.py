"""What the practice server (web/) and the class's server (classroom/) share: access and answers."""
