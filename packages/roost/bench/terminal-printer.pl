# A terminal agent that prints continuously: ten lines a second, each with the time it was written
# (ms since the epoch), so whoever reads the screen can tell how fresh what it read is.
use strict;
use warnings;
use Time::HiRes qw(time sleep);
$| = 1;
my $i = 0;
while (1) {
    $i++;
    printf "tick %d at %.0f\n", $i, time * 1000;
    sleep 0.1;
}
