package dev.shardex.frameworks.petclinic;

import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class PetClinicApplication {}
