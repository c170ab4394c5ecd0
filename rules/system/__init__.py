"""Operating-system advice: the block-device settings InnoDB's IO depends on."""
